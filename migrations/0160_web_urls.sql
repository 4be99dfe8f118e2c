-- Stored URLs from the world are absolute http(s) URLs only (src/net/web-url.ts): a posting URL that is anything
-- else (a board may send `javascript:` or a relative path) links to its board's page instead, or to the company's
-- home page when the job has no board; company links that are not http(s) are removed. The pattern is the one
-- isWebUrl applies to every rendered URL. Jobs' triggers move the listing feed and the catalog version as usual.
UPDATE jobs j SET url = coalesce(
    (SELECT b.url FROM boards b WHERE b.id = j.board_id AND b.url ~* '^https?://[^/\\?#[:space:]]'),
    (SELECT 'https://' || c.domain || '/' FROM companies c WHERE c.id = j.company_id)),
  updated_at = now()
WHERE j.url !~* '^https?://[^/\\?#[:space:]]';

UPDATE companies SET website = NULL WHERE website !~* '^https?://[^/\\?#[:space:]]';

UPDATE companies SET logo_url = NULL WHERE logo_url !~* '^https?://[^/\\?#[:space:]]';

UPDATE companies SET social_links = coalesce(
    (SELECT jsonb_object_agg(l.key, l.value) FROM jsonb_each_text(social_links::jsonb) l
     WHERE l.value ~* '^https?://[^/\\?#[:space:]]'), '{}'::jsonb)
WHERE EXISTS (SELECT 1 FROM jsonb_each_text(social_links::jsonb) l WHERE l.value !~* '^https?://[^/\\?#[:space:]]');
