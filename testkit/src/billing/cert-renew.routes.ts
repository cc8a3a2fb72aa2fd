import { certRenewBody } from '@gw/contracts';
import { deviceProofWindow, verifyDeviceCertificate, verifyDeviceProof } from '@gw/platform';
import type { BillingContext } from './billing-context.js';
import { errorReply, okReply, type BillingReply } from './billing-reply.js';
import type { BillingRequest } from './billing-server.js';
import { describeIssue, parseJson } from './json-body.js';

/**
 * `POST /v1/cert/renew`: roll a live device certificate forward. The bearer is the certificate plus a fresh
 * `cert-renew` proof from its bound key, each proof good once; a revoked developer's certificate is not renewed.
 * The new certificate keeps the subject and the device key, with a new serial and lifetime.
 */
export function certRenewRoute(request: BillingRequest, context: BillingContext): BillingReply {
  if (request.body === 'too_large')
    return errorReply(413, 'payload_too_large', 'a renewal request is a certificate and a proof');
  const json = parseJson(request.body);
  if (json === undefined) return errorReply(400, 'invalid_request', 'body is not JSON');
  const body = certRenewBody.safeParse(json);
  if (!body.success) return errorReply(400, 'invalid_request', describeIssue(body.error.issues[0]));
  const now = context.now();
  const { deviceCa } = context;
  const certificate = verifyDeviceCertificate(body.data.certificate, deviceCa.trust, context.deploymentId, now);
  if (!certificate.ok)
    return errorReply(
      401,
      'invalid_device_certificate',
      `the device certificate does not verify (${certificate.reason.replace('_', ' ')})`,
    );
  const proof = verifyDeviceProof(body.data.proof, {
    certificate: certificate.payload,
    certificateSha256: certificate.sha256,
    purpose: 'cert-renew',
    nowMs: now,
  });
  if (!proof.ok)
    return errorReply(401, 'invalid_proof', `the proof of possession is refused (${proof.reason.replace('_', ' ')})`);
  for (const [key, forgetAt] of deviceCa.spentProofs) if (forgetAt <= now) deviceCa.spentProofs.delete(key);
  if (deviceCa.spentProofs.has(proof.replayKey))
    return errorReply(401, 'proof_replayed', 'this proof was already used; sign a fresh one');
  if (deviceCa.revokedSubjects.has(certificate.payload.subject.toLowerCase()))
    return errorReply(403, 'developer_revoked', 'the developer of this certificate is revoked');
  deviceCa.spentProofs.set(proof.replayKey, now + deviceProofWindow.pastMs + deviceProofWindow.futureMs);
  return okReply({ certificate: deviceCa.issue(certificate.payload.subject, certificate.payload.deviceKey, now) });
}
