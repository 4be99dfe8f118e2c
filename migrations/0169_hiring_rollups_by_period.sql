-- Week and month rollups beside the daily ones, so a series reads one row per period and key: a 52-week series 52
-- rows, not 364. Each daily rollup (hiring_daily, hiring_daily_all, hiring_daily_tag, hiring_daily_tag_pair) has a
-- weekly and a monthly twin of the same columns and keys, whose `day` is the first day of the period (the Monday of
-- an ISO week, the 1st of a month). A twin's row is the sum of the daily rows of its period, kept by a fold: every
-- statement that writes a daily rollup (the job_events triggers, a company's tags or listing moving its days, a
-- rebuild) adds its inserted rows, its updated rows' change and its deleted rows' removal to the twins. The fold
-- reads what the daily rows became, never the events, so what counts as an opening is decided in one place.

CREATE TABLE hiring_weekly (LIKE hiring_daily INCLUDING ALL);
CREATE TABLE hiring_monthly (LIKE hiring_daily INCLUDING ALL);
CREATE TABLE hiring_weekly_all (LIKE hiring_daily_all INCLUDING ALL);
CREATE TABLE hiring_monthly_all (LIKE hiring_daily_all INCLUDING ALL);
CREATE TABLE hiring_weekly_tag (LIKE hiring_daily_tag INCLUDING ALL);
CREATE TABLE hiring_monthly_tag (LIKE hiring_daily_tag INCLUDING ALL);
CREATE TABLE hiring_weekly_tag_pair (LIKE hiring_daily_tag_pair INCLUDING ALL);
CREATE TABLE hiring_monthly_tag_pair (LIKE hiring_daily_tag_pair INCLUDING ALL);

-- The daily rollups and their keys besides (day, role_category).
CREATE FUNCTION hiring_rollup_keys() RETURNS TABLE (daily text, keys text[]) LANGUAGE sql IMMUTABLE AS $$
  VALUES ('hiring_daily', ARRAY['company_id']), ('hiring_daily_all', ARRAY[]::text[]),
         ('hiring_daily_tag', ARRAY['tag_id']), ('hiring_daily_tag_pair', ARRAY['tag_id', 'other_tag_id'])
$$;

-- A period's twin of a daily rollup: hiring_daily_tag -> hiring_weekly_tag.
CREATE FUNCTION hiring_period_table(p_daily text, p_grain text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT replace(p_daily, 'hiring_daily', CASE p_grain WHEN 'week' THEN 'hiring_weekly' ELSE 'hiring_monthly' END)
$$;

-- The statements that add rows (SQL giving the keys, day, role_category and the six counts) to a period's twin,
-- summed per period, then (with p_prune) delete the twin's rows they touched that reached zero events. Run by the
-- caller: a trigger's transition tables are visible to its own function's statements only.
CREATE FUNCTION hiring_period_statements(p_daily text, p_keys text[], p_grain text, p_rows text, p_prune boolean)
RETURNS text[] LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  target text := hiring_period_table(p_daily, p_grain);
  k text := concat(array_to_string(p_keys, ', '), CASE WHEN cardinality(p_keys) > 0 THEN ', ' END);
  hk text := concat(array_to_string(array(SELECT 'h.' || x FROM unnest(p_keys) x), ', '),
                    CASE WHEN cardinality(p_keys) > 0 THEN ', ' END);
  period text := format('date_trunc(%L, r.day::timestamp)::date', p_grain);
BEGIN
  RETURN ARRAY[format(
    'INSERT INTO %1$I AS h (%2$sday, role_category, initial, opened, reopened, closed, net, events)
       SELECT %2$s%3$s, r.role_category, sum(r.initial), sum(r.opened), sum(r.reopened), sum(r.closed),
              sum(r.net), sum(r.events)
       FROM (%4$s) r GROUP BY %2$s%3$s, r.role_category ORDER BY %2$s%3$s, r.role_category
       ON CONFLICT (%2$sday, role_category) DO UPDATE SET
         initial = h.initial + EXCLUDED.initial, opened = h.opened + EXCLUDED.opened,
         reopened = h.reopened + EXCLUDED.reopened, closed = h.closed + EXCLUDED.closed,
         net = h.net + EXCLUDED.net, events = h.events + EXCLUDED.events',
    target, k, period, p_rows)] || CASE WHEN p_prune THEN ARRAY[format(
      'DELETE FROM %1$I h WHERE h.events = 0 AND (%2$sh.day, h.role_category) IN (
         SELECT %3$s%4$s, r.role_category FROM (%5$s) r)',
      target, hk, k, period, p_rows)] ELSE ARRAY[]::text[] END;
END $$;

-- The fold of a statement's changes to a daily rollup (TG_ARGV: its keys) into its week and month twins. Off while
-- a rebuild recomputes the twins from the daily rows (frontline.hiring_fold = 'off', local to its transaction).
CREATE FUNCTION hiring_periods_fold() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  keys text[] := coalesce(TG_ARGV::text[], ARRAY[]::text[]);
  cols text := concat(array_to_string(keys, ', '), CASE WHEN TG_NARGS > 0 THEN ', ' END);
  plus text := cols || 'day, role_category, initial, opened, reopened, closed, net, events';
  minus text := cols || 'day, role_category, -initial AS initial, -opened AS opened, -reopened AS reopened,
                 -closed AS closed, -net AS net, -events AS events';
  rows text;
  grain text;
  stmt text;
  present boolean;
BEGIN
  IF current_setting('frontline.hiring_fold', true) = 'off' THEN
    RETURN NULL;
  END IF;
  EXECUTE format('SELECT EXISTS (SELECT 1 FROM %s)', CASE TG_OP WHEN 'INSERT' THEN 'new_rows' ELSE 'old_rows' END)
    INTO present;
  IF NOT present THEN
    RETURN NULL;
  END IF;
  rows := CASE TG_OP
    WHEN 'INSERT' THEN format('SELECT %s FROM new_rows', plus)
    WHEN 'DELETE' THEN format('SELECT %s FROM old_rows', minus)
    ELSE format('SELECT %s FROM new_rows UNION ALL SELECT %s FROM old_rows', plus, minus) END;
  FOREACH grain IN ARRAY ARRAY['week', 'month'] LOOP
    FOREACH stmt IN ARRAY hiring_period_statements(TG_TABLE_NAME, keys, grain, rows, TG_OP <> 'INSERT') LOOP
      EXECUTE stmt;
    END LOOP;
  END LOOP;
  RETURN NULL;
END $$;

DO $$
DECLARE
  r record;
  args text;
BEGIN
  FOR r IN SELECT * FROM hiring_rollup_keys() LOOP
    args := (SELECT coalesce(string_agg(quote_literal(x), ', '), '') FROM unnest(r.keys) x);
    EXECUTE format('CREATE TRIGGER %1$s_fold_insert AFTER INSERT ON %1$I REFERENCING NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION hiring_periods_fold(%2$s)', r.daily, args);
    EXECUTE format('CREATE TRIGGER %1$s_fold_update AFTER UPDATE ON %1$I
      REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION hiring_periods_fold(%2$s)', r.daily, args);
    EXECUTE format('CREATE TRIGGER %1$s_fold_delete AFTER DELETE ON %1$I REFERENCING OLD TABLE AS old_rows
      FOR EACH STATEMENT EXECUTE FUNCTION hiring_periods_fold(%2$s)', r.daily, args);
  END LOOP;
END $$;

-- Recomputes the week and month twins from the daily rollups, each in key order.
CREATE FUNCTION hiring_periods_rebuild() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  r record;
  grain text;
  stmt text;
BEGIN
  FOR r IN SELECT * FROM hiring_rollup_keys() LOOP
    FOREACH grain IN ARRAY ARRAY['week', 'month'] LOOP
      EXECUTE format('DELETE FROM %I', hiring_period_table(r.daily, grain));
      FOREACH stmt IN ARRAY hiring_period_statements(r.daily, r.keys, grain, format('SELECT * FROM %I', r.daily), false)
      LOOP
        EXECUTE stmt;
      END LOOP;
    END LOOP;
  END LOOP;
END $$;

-- The rebuild of the daily rollups (migrations/0156) computes the twins from what it wrote, not by the fold, so a
-- rebuild checks the fold. Returns the number of company-day rows.
ALTER FUNCTION rebuild_hiring_daily() RENAME TO rebuild_hiring_days;
CREATE FUNCTION rebuild_hiring_daily() RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  n integer;
BEGIN
  PERFORM set_config('frontline.hiring_fold', 'off', true);
  n := rebuild_hiring_days();
  PERFORM hiring_periods_rebuild();
  PERFORM set_config('frontline.hiring_fold', 'on', true);
  RETURN n;
END $$;

SELECT hiring_periods_rebuild();
