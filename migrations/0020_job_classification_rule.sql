-- Which classification rule decided a job's role_category ("title:fde-keyword", "department:sales",
-- "description:customer-deployment", "default:other"; src/pipeline/classify/rules.json), written with the category
-- on every scrape so that a wrong label can be traced to its rule. NULL for rows written before the rule was kept
-- and for sample rows; the next scrape of their board fills it.
ALTER TABLE jobs ADD COLUMN classification_rule text;
