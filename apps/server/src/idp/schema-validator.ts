import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import {
  ParseOption,
  XmlBufferInputProvider,
  xmlCleanupInputProvider,
  XmlDocument,
  xmlRegisterInputProvider,
  XsdValidator,
} from 'libxml2-wasm';

/**
 * The IdP's check of an AuthnRequest against the SAML 2.0 XSDs, with libxml2 compiled to WebAssembly as a
 * library (libxml2-wasm), in this thread.
 *
 * xmllint (the program samlify's validator packages run) parses all six schema files again for
 * every document: about 7 ms of each sign-in even with its module compiled once. Here the
 * schemas are parsed and compiled once per process, on the first check, and each document is
 * only parsed and validated against them (tens of microseconds for an AuthnRequest), then freed.
 * Documents are parsed with libxml2's defaults: no entity substitution, no DTD or other external
 * loading; the schema files are served from memory and nothing else can be read. A refusal is only
 * an exception, never console output.
 */
const resolveFrom = createRequire(import.meta.url);
const schemaDir = join(dirname(resolveFrom.resolve('@authenio/samlify-xmllint-wasm')), 'schemas');

/** The protocol schema first: it imports the others by these names. */
const schemaFiles = [
  'saml-schema-protocol-2.0.xsd',
  'saml-schema-assertion-2.0.xsd',
  'xmldsig-core-schema.xsd',
  'xenc-schema.xsd',
];

/** Parse options for validated documents: libxml2's defaults, and never the network. */
const DOCUMENT_OPTIONS = { option: ParseOption.XML_PARSE_NONET };

/** The compiled schemas, with the parsed main schema they were compiled from (libxml2 may refer to it). */
let compiled: { validator: XsdValidator; schema: XmlDocument } | null = null;
/** How many times this process compiled the schemas (tests check that one serves many calls). */
let compilations = 0;

function compileSchemas(): { validator: XsdValidator; schema: XmlDocument } {
  const files = new XmlBufferInputProvider(
    Object.fromEntries(schemaFiles.map((name) => [name, readFileSync(join(schemaDir, name))])),
  );
  // Only while compiling: the imports resolve to these buffers, and afterwards no provider is left.
  xmlRegisterInputProvider(files);
  try {
    const [main] = schemaFiles as [string, ...string[]];
    const schema = XmlDocument.fromBuffer(readFileSync(join(schemaDir, main)), { url: main });
    try {
      return { validator: XsdValidator.fromDoc(schema), schema };
    } catch (error) {
      schema.dispose();
      throw error;
    }
  } finally {
    xmlCleanupInputProvider();
  }
}

/** Compiles the schemas now, if not yet done: the IdP does it at start, not in the first sign-in. */
export function loadSchemaValidator(): XsdValidator {
  if (!compiled) {
    compiled = compileSchemas();
    compilations += 1;
  }
  return compiled.validator;
}

export const samlSchemaValidator = {
  /** Async like samlify's validators (its interface); the check itself is synchronous. */
  async validate(xml: string): Promise<true> {
    const schema = loadSchemaValidator();
    let doc: XmlDocument;
    try {
      doc = XmlDocument.fromString(xml, DOCUMENT_OPTIONS);
    } catch {
      throw new Error('ERR_EXCEPTION_VALIDATE_XML');
    }
    try {
      schema.validate(doc);
    } catch {
      throw new Error('ERR_EXCEPTION_VALIDATE_XML');
    } finally {
      doc.dispose();
    }
    return true;
  },
};

/** Frees the compiled schemas (tests); the next check compiles them again. */
export function resetSchemaValidator(): void {
  compiled?.validator.dispose();
  compiled?.schema.dispose();
  compiled = null;
}

/** How many times this process has compiled the schemas. */
export function schemaValidatorCompilations(): number {
  return compilations;
}
