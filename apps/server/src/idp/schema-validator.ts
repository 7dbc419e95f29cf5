import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Worker } from 'node:worker_threads';

/**
 * samlify's schema check against the SAML 2.0 XSDs, run in xmllint compiled to WebAssembly.
 *
 * The package's own `validateXML` starts a worker thread, reads and compiles the 800 kB wasm
 * module and then validates, on every call: about 100 ms per sign-in. Here one worker lives as
 * long as sign-ins keep coming: it compiled the module and holds the schemas once, and each call
 * only instantiates the compiled module (xmllint is a program that exits after one run, so each
 * validation still gets a fresh instance and nothing leaks between documents). The worker keeps
 * the event loop free while xmllint parses. A refusal is only an exception, never console output.
 */
const resolveFrom = createRequire(import.meta.url);
const schemaDir = join(dirname(resolveFrom.resolve('@authenio/samlify-xmllint-wasm')), 'schemas');
const xmllintDir = dirname(resolveFrom.resolve('xmllint-wasm'));

const schemaFiles = [
  'saml-schema-protocol-2.0.xsd',
  'datatypes.dtd',
  'saml-schema-assertion-2.0.xsd',
  'xmldsig-core-schema.xsd',
  'XMLSchema.dtd',
  'xenc-schema.xsd',
];

/** An idle worker is stopped after this long, giving its memory back; the next call starts one. */
const IDLE_MS = 5 * 60_000;
/** A validation that takes this long is treated as a failure (and the worker replaced). */
const TIMEOUT_MS = 10_000;

// The worker: loads xmllint's emscripten factory without the package's one-shot worker wrapper,
// compiles the wasm once, and runs `xmllint --schema protocol.xsd --noout content.xml` per message.
const workerSource = `
const { parentPort, workerData } = require('node:worker_threads');
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const script = join(workerData.xmllintDir, 'xmllint-node.js');
const source = readFileSync(script, 'utf8');
const factorySource = source.slice(0, source.indexOf(';(function initWorker()'));
const holder = { exports: {} };
new Function('require', '__filename', '__dirname', 'module', 'exports', factorySource)(
  require, script, workerData.xmllintDir, holder, holder.exports);
const createXmllint = holder.exports;
const wasm = new WebAssembly.Module(readFileSync(join(workerData.xmllintDir, 'xmllint.wasm')));
const schemas = workerData.schemas;
const args = ['--schema', schemas[0].fileName, '--noout', 'content.xml'];

function run(xml) {
  return new Promise((resolve, reject) => {
    createXmllint({
      inputFiles: [{ fileName: 'content.xml', contents: xml }, ...schemas],
      // A copy: the runtime puts the program name in front of the array it is given.
      arguments: [...args],
      thisProgram: 'xmllint',
      stdout: () => {},
      stderr: () => {},
      onExit: resolve,
      quit: (_status, error) => { throw error; },
      wasmMemory: new WebAssembly.Memory({ initial: 256, maximum: 512 }),
      instantiateWasm(imports, receive) {
        const instance = new WebAssembly.Instance(wasm, imports);
        receive(instance, wasm);
        return instance.exports;
      },
    }).catch(reject);
  });
}

parentPort.on('message', ({ id, xml }) => {
  run(xml).then(
    (exitCode) => parentPort.postMessage({ id, exitCode }),
    () => parentPort.postMessage({ id, exitCode: -1 }),
  );
});
`;

interface Pending {
  resolve(exitCode: number): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

class XmllintWorker {
  private worker: Worker | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private idleTimer: NodeJS.Timeout | undefined;
  private schemas: { fileName: string; contents: string }[] | undefined;
  /** How many workers were started so far (tests check that one serves many calls). */
  starts = 0;

  private start(): Worker {
    this.schemas ??= schemaFiles.map((fileName) => ({
      fileName,
      contents: readFileSync(join(schemaDir, fileName), 'utf8'),
    }));
    const worker = new Worker(workerSource, {
      eval: true,
      workerData: { xmllintDir, schemas: this.schemas },
    });
    worker.on('message', ({ id, exitCode }: { id: number; exitCode: number }) => {
      const call = this.pending.get(id);
      if (!call) return;
      this.pending.delete(id);
      clearTimeout(call.timer);
      call.resolve(exitCode);
      this.settle();
    });
    const fail = (error: Error) => {
      if (this.worker === worker) this.worker = null;
      for (const call of this.pending.values()) {
        clearTimeout(call.timer);
        call.reject(error);
      }
      this.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', () => fail(new Error('schema validator stopped')));
    this.worker = worker;
    this.starts += 1;
    return worker;
  }

  /** While calls are open the worker keeps the process alive; idle, it may stop and is stopped later. */
  private settle(): void {
    if (this.pending.size > 0 || !this.worker) return;
    this.worker.unref();
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => void this.stop(), IDLE_MS);
    this.idleTimer.unref();
  }

  async stop(): Promise<void> {
    clearTimeout(this.idleTimer);
    const worker = this.worker;
    this.worker = null;
    await worker?.terminate();
  }

  /** xmllint's exit code for the document: 0 valid, 3 or 4 invalid, anything else a failure. */
  exitCode(xml: string): Promise<number> {
    const worker = this.worker ?? this.start();
    clearTimeout(this.idleTimer);
    worker.ref();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error('schema validation timed out'));
        void this.stop();
      }, TIMEOUT_MS);
      this.pending.set(id, { resolve, reject, timer });
      worker.postMessage({ id, xml });
    });
  }
}

const xmllint = new XmllintWorker();

export const samlSchemaValidator = {
  async validate(xml: string): Promise<true> {
    const exitCode = await xmllint.exitCode(xml);
    if (exitCode !== 0) throw new Error('ERR_EXCEPTION_VALIDATE_XML');
    return true;
  },
};

/** Stops the validator's worker now (tests; the process exits without it otherwise). */
export function stopSchemaValidator(): Promise<void> {
  return xmllint.stop();
}

/** How many validator workers this process has started. */
export function schemaValidatorStarts(): number {
  return xmllint.starts;
}
