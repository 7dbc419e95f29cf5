import { afterAll, describe, expect, it } from 'vitest';
import { resetSchemaValidator, samlSchemaValidator, schemaValidatorCompilations } from './schema-validator';

const valid = `<samlp:AuthnRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol"
  xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_a1" Version="2.0"
  IssueInstant="2024-01-01T00:00:00Z"><saml:Issuer>https://sp.example</saml:Issuer></samlp:AuthnRequest>`;

/** A ds:Signature after the Issuer, as the schema places it; `signedInfo` is its first child. */
const withSignature = (signedInfo: string) =>
  valid.replace(
    '</saml:Issuer>',
    `</saml:Issuer><ds:Signature xmlns:ds="http://www.w3.org/2000/09/xmldsig#">${signedInfo}` +
      '<ds:SignatureValue>AAAA</ds:SignatureValue></ds:Signature>',
  );
const signedInfo =
  '<ds:SignedInfo><ds:CanonicalizationMethod Algorithm="http://www.w3.org/2001/10/xml-exc-c14n#"/>' +
  '<ds:SignatureMethod Algorithm="http://www.w3.org/2001/04/xmldsig-more#rsa-sha256"/>' +
  '<ds:Reference URI="#_a1"><ds:DigestMethod Algorithm="http://www.w3.org/2001/04/xmlenc#sha256"/>' +
  '<ds:DigestValue>AAAA</ds:DigestValue></ds:Reference></ds:SignedInfo>';

describe('the SAML schema validator', () => {
  afterAll(() => resetSchemaValidator());

  it('accepts a schema-valid AuthnRequest, call after call, with the schemas compiled once', async () => {
    await samlSchemaValidator.validate(valid);
    const before = schemaValidatorCompilations();
    for (let i = 0; i < 4; i++) await expect(samlSchemaValidator.validate(valid)).resolves.toBe(true);
    await expect(Promise.all([1, 2, 3].map(() => samlSchemaValidator.validate(valid)))).resolves.toEqual([
      true,
      true,
      true,
    ]);
    expect(schemaValidatorCompilations()).toBe(before);
  });

  it('checks a signature against the imported XML Signature schema', async () => {
    await expect(samlSchemaValidator.validate(withSignature(signedInfo))).resolves.toBe(true);
    await expect(samlSchemaValidator.validate(withSignature(''))).rejects.toThrow(
      'ERR_EXCEPTION_VALIDATE_XML',
    );
  });

  it.each([
    ['a required attribute missing', valid.replace('Version="2.0"', '')],
    ['an attribute the schema does not allow', valid.replace('Version="2.0"', 'Version="2.0" Evil="1"')],
    [
      'an element the schema does not allow',
      valid.replace('</samlp:AuthnRequest>', '<evil/></samlp:AuthnRequest>'),
    ],
    ['malformed XML', valid.slice(0, 60)],
    ['another document type', '<html xmlns="http://www.w3.org/1999/xhtml"></html>'],
    ['an empty document', ''],
  ])('refuses %s', async (_name, xml) => {
    await expect(samlSchemaValidator.validate(xml)).rejects.toThrow('ERR_EXCEPTION_VALIDATE_XML');
    // A refusal leaves the validator working for the next document.
    await expect(samlSchemaValidator.validate(valid)).resolves.toBe(true);
  });

  it('compiles the schemas again after a reset', async () => {
    resetSchemaValidator();
    const before = schemaValidatorCompilations();
    await expect(samlSchemaValidator.validate(valid)).resolves.toBe(true);
    expect(schemaValidatorCompilations()).toBe(before + 1);
  });
});
