import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { validateXML } from 'xmllint-wasm';

/**
 * samlify's schema check against the SAML 2.0 XSDs, run in xmllint compiled to WebAssembly. It
 * replaces the wrapper package's own `validate`, which re-reads the schemas on every call and
 * prints the rejected document's errors to the console; here a refusal is only an exception.
 */
const schemaDir = join(
  dirname(createRequire(import.meta.url).resolve('@authenio/samlify-xmllint-wasm')),
  'schemas',
);
const [main, ...preload] = [
  'saml-schema-protocol-2.0.xsd',
  'datatypes.dtd',
  'saml-schema-assertion-2.0.xsd',
  'xmldsig-core-schema.xsd',
  'XMLSchema.dtd',
  'xenc-schema.xsd',
].map((fileName) => ({ fileName, contents: readFileSync(join(schemaDir, fileName), 'utf8') }));

export const samlSchemaValidator = {
  async validate(xml: string): Promise<true> {
    const result = await validateXML({
      xml: [{ fileName: 'content.xml', contents: xml }],
      extension: 'schema',
      schema: [main!.contents],
      preload,
    });
    if (!result.valid) throw new Error('ERR_EXCEPTION_VALIDATE_XML');
    return true;
  },
};
