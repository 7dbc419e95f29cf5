import { afterAll, describe, expect, it } from 'vitest';
import { samlSchemaValidator, schemaValidatorStarts, stopSchemaValidator } from './schema-validator';

const valid = `<samlp:AuthnRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol"
  xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_a1" Version="2.0"
  IssueInstant="2024-01-01T00:00:00Z"><saml:Issuer>https://sp.example</saml:Issuer></samlp:AuthnRequest>`;

describe('the SAML schema validator', () => {
  afterAll(() => stopSchemaValidator());

  it('accepts a schema-valid AuthnRequest, call after call, from one worker', async () => {
    const before = schemaValidatorStarts();
    for (let i = 0; i < 4; i++) await expect(samlSchemaValidator.validate(valid)).resolves.toBe(true);
    await expect(Promise.all([1, 2, 3].map(() => samlSchemaValidator.validate(valid)))).resolves.toEqual([
      true,
      true,
      true,
    ]);
    expect(schemaValidatorStarts() - before).toBeLessThanOrEqual(1);
  });

  it.each([
    ['a required attribute missing', valid.replace('Version="2.0"', '')],
    [
      'an element the schema does not allow',
      valid.replace('</samlp:AuthnRequest>', '<evil/></samlp:AuthnRequest>'),
    ],
    ['malformed XML', valid.slice(0, 60)],
    ['another document type', '<html xmlns="http://www.w3.org/1999/xhtml"></html>'],
  ])('refuses %s', async (_name, xml) => {
    await expect(samlSchemaValidator.validate(xml)).rejects.toThrow('ERR_EXCEPTION_VALIDATE_XML');
    // A refusal leaves the validator working for the next document.
    await expect(samlSchemaValidator.validate(valid)).resolves.toBe(true);
  });

  it('starts a new worker after the old one stopped', async () => {
    await stopSchemaValidator();
    const before = schemaValidatorStarts();
    await expect(samlSchemaValidator.validate(valid)).resolves.toBe(true);
    expect(schemaValidatorStarts()).toBe(before + 1);
  });
});
