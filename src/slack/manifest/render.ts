import { Document, isMap, isScalar, isSeq } from 'yaml';
import { HEADER } from './base.js';

/** Where a comment goes in the manifest: the keys and indexes down to what it stands above. */
export type Path = readonly (string | number)[];

/** Comment lines of at most `width` characters. */
function wrap(text: string, width = 100): string {
  return (
    text
      .split('\n')
      .flatMap((para) => {
        const lines: string[] = [];
        let line = '';
        for (const word of para.split(' ')) {
          if (line && line.length + 1 + word.length > width) {
            lines.push(line);
            line = word;
          } else line = line ? `${line} ${word}` : word;
        }
        return [...lines, line];
      })
      // A comment's empty line would end it: a lone space keeps a `#` line between paragraphs.
      .map((l) => ` ${l}`)
      .join('\n')
  );
}

/** The manifest as YAML, the header first and each comment above what it explains. */
export function render(
  manifest: Record<string, unknown>,
  comments: readonly { path: Path; why: string }[],
): string {
  const doc = new Document(manifest);
  doc.commentBefore = wrap(HEADER.join('\n'), 110);
  for (const { path, why } of comments) {
    const parent = path.length > 1 ? doc.getIn(path.slice(0, -1), true) : doc.contents;
    const last = path.at(-1)!;
    if (isSeq(parent)) {
      const item = parent.items[last as number];
      if (isScalar(item) || isMap(item)) item.commentBefore = wrap(why);
    } else if (isMap(parent)) {
      const pair = parent.items.find((p) => isScalar(p.key) && p.key.value === last);
      if (pair && isScalar(pair.key)) pair.key.commentBefore = wrap(why);
    }
  }
  return doc.toString({ lineWidth: 0 });
}
