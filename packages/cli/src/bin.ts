#!/usr/bin/env node
import { interruptSignal } from './interrupt.js';
import { processIo } from './io.js';
import { guardLibraryConsole } from './library-console.js';
import { main } from './main.js';

const err = (text: string) => process.stderr.write(text);
guardLibraryConsole(err);
process.exitCode = await main(process.argv.slice(2), processIo(interruptSignal(err)));
