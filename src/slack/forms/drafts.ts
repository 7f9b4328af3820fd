// The drafts live with the shared views, so a flow's end can offer "Reopen with my inputs" without
// importing the forms feature.
export { loadDraft, saveDraft } from '../views/form-drafts.js';
