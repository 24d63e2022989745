ALTER TABLE `udwf_workflows` ADD `actor` text;--> statement-breakpoint
-- Workflows saved before this column: whoever last saved the setup or enabled them (from the audit events), so a
-- setup a shared editor shaped already runs within that editor's rights too.
UPDATE `udwf_workflows` SET `actor` = (
  SELECT e.user_id FROM events e
  WHERE e.entity_id = udwf_workflows.workflow_id AND e.entity_type = 'workflow' AND e.kind IN ('workflow.setup', 'workflow.enable')
  ORDER BY e.rowid DESC LIMIT 1
);
