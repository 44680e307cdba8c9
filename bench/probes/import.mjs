// Run in a fresh process: prints how many ms `import(<specifier>)` took, the library's whole load
// (its files read, compiled and run) as a program that starts by importing it pays it.
const specifier = process.argv[2];
const start = performance.now();
await import(specifier);
console.log(performance.now() - start);
