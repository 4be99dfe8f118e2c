-- Gem and Rippling job boards: the vendors with an adapter in src/sources/ (PROVIDERS).
ALTER TABLE boards DROP CONSTRAINT IF EXISTS boards_provider_check;
ALTER TABLE boards ADD CONSTRAINT boards_provider_check CHECK (provider IN (
  'greenhouse', 'lever', 'ashby', 'workable', 'smartrecruiters', 'recruitee',
  'workday', 'personio', 'bamboohr', 'breezy', 'pinpoint', 'gem', 'rippling'));
