-- Webhook secrets are stored sealed (AES-256-GCM, "v1:" and base64 of nonce, ciphertext and tag; SealedSecrets):
-- room for the sealed form of a longer secret or a later format. Widening a varchar rewrites nothing.
ALTER TABLE hooks ALTER COLUMN secret TYPE varchar(512);
ALTER TABLE subscriptions ALTER COLUMN secret TYPE varchar(512);
COMMENT ON COLUMN hooks.secret IS 'the HMAC key of every call, sealed with jobweaver.security.secret-key (v1:...); a value without v1: is a plaintext from before sealing, sealed at the next start';
COMMENT ON COLUMN subscriptions.secret IS 'the signing secret of the deliveries, sealed with jobweaver.security.secret-key (v1:...); a value without v1: is a plaintext from before sealing, sealed at the next start';
