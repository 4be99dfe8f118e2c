-- An active token's name names one token: `frontline tokens revoke NAME` revokes that one, and logs and /me name
-- it unambiguously. Where active tokens share a name, every one but the oldest gets the first 8 characters of
-- its id appended, so the index can be built and every token keeps working under a name that tells them apart.
UPDATE api_tokens t SET name = left(t.name, 91) || ' ' || left(t.id::text, 8)
WHERE t.revoked_at IS NULL AND EXISTS (
  SELECT 1 FROM api_tokens o
  WHERE o.revoked_at IS NULL AND o.name = t.name AND (o.created_at, o.id) < (t.created_at, t.id)
);
CREATE UNIQUE INDEX api_tokens_active_name_idx ON api_tokens (name) WHERE revoked_at IS NULL;
