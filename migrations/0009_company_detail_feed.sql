-- GET /companies/:id (and the company block of GET /jobs/:id) is served from the in-process replica too, so
-- every column a company's detail shows moves the change feed: a change to any of them bumps search_seq.
-- search_seq itself and the generated search_tsv are left out (the first is what this trigger sets, the second
-- is not computed yet in a BEFORE trigger).
DROP TRIGGER companies_search_seq ON companies;
CREATE TRIGGER companies_search_seq BEFORE UPDATE ON companies FOR EACH ROW
  WHEN (OLD.name IS DISTINCT FROM NEW.name OR OLD.slug IS DISTINCT FROM NEW.slug
    OR OLD.domain IS DISTINCT FROM NEW.domain OR OLD.website IS DISTINCT FROM NEW.website
    OR OLD.one_liner IS DISTINCT FROM NEW.one_liner OR OLD.description IS DISTINCT FROM NEW.description
    OR OLD.category IS DISTINCT FROM NEW.category OR OLD.founded_year IS DISTINCT FROM NEW.founded_year
    OR OLD.employee_count IS DISTINCT FROM NEW.employee_count
    OR OLD.headquarters IS DISTINCT FROM NEW.headquarters
    OR OLD.funding_summary IS DISTINCT FROM NEW.funding_summary
    OR OLD.total_funding_usd IS DISTINCT FROM NEW.total_funding_usd
    OR OLD.social_links IS DISTINCT FROM NEW.social_links OR OLD.logo_url IS DISTINCT FROM NEW.logo_url
    OR OLD.research_summary IS DISTINCT FROM NEW.research_summary
    OR OLD.is_sample IS DISTINCT FROM NEW.is_sample OR OLD.active IS DISTINCT FROM NEW.active
    OR OLD.active_job_count IS DISTINCT FROM NEW.active_job_count
    OR OLD.created_at IS DISTINCT FROM NEW.created_at OR OLD.updated_at IS DISTINCT FROM NEW.updated_at)
  EXECUTE FUNCTION search_bump_seq();
