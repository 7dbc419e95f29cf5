import type { Config } from '../../config';
import { readSettingFile } from '../../platform/setting-files';
import { builtinIdentityStore, type IdentityStore } from './identity-store';
import { LdapIdentityStore } from './ldap-store';

/**
 * The identity store IDENTITY_STORE names. The ldap one reads its password and CA files now, so a
 * missing or unreadable one stops the start naming its variable (the config already required them).
 */
export function createIdentityStore(config: Config): IdentityStore {
  if (config.IDENTITY_STORE !== 'ldap') return builtinIdentityStore;
  const required = (
    name: 'LDAP_URL' | 'LDAP_BIND_DN' | 'LDAP_BIND_PASSWORD_FILE' | 'LDAP_VENDORS_DN' | 'LDAP_GROUPS_DN',
  ) => {
    const value = config[name];
    if (!value) throw new Error(`${name}: required when IDENTITY_STORE is ldap`);
    return value;
  };
  const bindPassword = readSettingFile(
    'LDAP_BIND_PASSWORD_FILE',
    required('LDAP_BIND_PASSWORD_FILE'),
  ).replace(/\r?\n$/, '');
  return new LdapIdentityStore({
    url: required('LDAP_URL'),
    profile: config.LDAP_PROFILE,
    bindDn: required('LDAP_BIND_DN'),
    bindPassword,
    vendorsDn: required('LDAP_VENDORS_DN'),
    groupsDn: required('LDAP_GROUPS_DN'),
    terminatedDn: config.LDAP_TERMINATED_DN,
    startTls: config.LDAP_STARTTLS,
    ca: config.LDAP_CA_FILE ? readSettingFile('LDAP_CA_FILE', config.LDAP_CA_FILE) : undefined,
    timeoutMs: config.LDAP_TIMEOUT_MS,
    healthCacheMs: config.LDAP_HEALTH_CACHE_SECONDS * 1000,
  });
}
