// Entry point of the product; the bot wiring replaces this placeholder.
console.log('tsai-chatops: the bot is not wired yet');
