-- Job titles and company names reach full text as the in-memory keyword index reads them
-- (src/search/keyword-index/lexemes.ts), so that a query's lexemes match the same jobs in memory and in the
-- database: a compound written hyphenated, spaced or joined is one word, its joined form
-- (src/search/query/word-forms.ts: "Pre-Sales", "pre sales" and "presales" all give 'presal'), and punctuation
-- always separates words ("AI/ML" is 'ai' and 'ml', where PostgreSQL's parser keeps one file-path token).
-- The forms below are src/search/query/word-forms.ts's; test/search/search-words.test.ts fails when the two differ.

CREATE OR REPLACE FUNCTION search_words(t text) RETURNS text
  LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
  -- Each form (its words, lower case) and its joined word; the longer forms of a first word come first.
  forms CONSTANT text[] := ARRAY[
    ['go to market', 'gotomarket'],
    ['pre sales', 'presales'], ['pre sale', 'presales'], ['presale', 'presales'],
    ['post sales', 'postsales'], ['post sale', 'postsales'], ['postsale', 'postsales'],
    ['gtm', 'gotomarket'],
    ['e commerce', 'ecommerce'],
    ['full stack', 'fullstack'],
    ['front end', 'frontend'],
    ['back end', 'backend'],
    ['on boarding', 'onboarding'],
    ['co founder', 'cofounder'],
    ['dev ops', 'devops'],
    ['ml ops', 'mlops'],
    ['set up', 'setup'],
    ['on site', 'onsite']
  ];
  f text[];
BEGIN
  FOREACH f SLICE 1 IN ARRAY forms LOOP
    -- Between the words: spaces, hyphens and dashes only, as in src/search/query/word-forms.ts.
    t := regexp_replace(t, '\m' || replace(f[1], ' ', '[-[:space:]\u2010-\u2015]+') || '\M', f[2], 'gi');
  END LOOP;
  -- ASCII punctuation and dashes separate words; letters of every script stay as they are.
  RETURN regexp_replace(t, '[!-/:-@[-`{-~\u2010-\u2015]+', ' ', 'g');
END
$$;

ALTER TABLE jobs DROP COLUMN search_tsv;
ALTER TABLE jobs ADD COLUMN search_tsv tsvector GENERATED ALWAYS AS (
  setweight(to_tsvector('english'::regconfig, search_words(title)), 'A') ||
  setweight(to_tsvector('english'::regconfig, search_words(company_name)), 'B')
) STORED;
CREATE INDEX jobs_search_idx ON jobs USING gin (search_tsv) WHERE active;
