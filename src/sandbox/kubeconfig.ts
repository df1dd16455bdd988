// The kubeconfig the sandbox hands out: one cluster (with its self-signed CA), one token user, one context.
import { stringify } from 'yaml';

export function kubeconfigText(o: { url: string; token: string; ca: string; contextName?: string; namespace?: string }): string {
  const ctx = o.contextName ?? 'sandbox';
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'sandbox', cluster: { server: o.url, 'certificate-authority-data': Buffer.from(o.ca).toString('base64') } }],
    users: [{ name: 'sandbox-admin', user: { token: o.token } }],
    contexts: [{ name: ctx, context: { cluster: 'sandbox', user: 'sandbox-admin', namespace: o.namespace ?? 'default' } }],
    'current-context': ctx,
    preferences: {},
  });
}
