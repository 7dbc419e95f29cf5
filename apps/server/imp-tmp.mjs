const pkg = JSON.parse((await import('node:fs')).readFileSync('package.json','utf8'));
const t = performance.now();
for (const name of Object.keys(pkg.dependencies)) {
  if (name.startsWith('@pra')) continue;
  const s = performance.now();
  try { await import(name); } catch (e) { console.log(name, 'ERR', e.message.slice(0,80)); continue; }
  console.log(name.padEnd(40), (performance.now() - s).toFixed(0));
}
console.log('total', (performance.now() - t).toFixed(0));
