ALTER TABLE `events` ADD `names` text;--> statement-breakpoint
-- Names of what an event is about, kept as they were when it was written (docs/decisions/057-readable-history.md):
-- the event's object, its actor and every id in its data, as {"<id>": ["<type>", "<name>"]}. A trigger, so every
-- writer (builders and raw statements alike) records them; an object already gone (deleted in the same batch,
-- before its event) keeps the name its own earlier events recorded.
CREATE TRIGGER `events_names` AFTER INSERT ON `events` BEGIN
  UPDATE `events` SET `names` = (
    SELECT json_group_object(s.id, json(s.j)) FROM (
      SELECT i.id AS id, COALESCE(
        (SELECT json_array('asset', a.name) FROM assets a WHERE a.asset_id = i.id),
        (SELECT json_array('group', g.group_name) FROM groups g WHERE g.group_id = i.id),
        (SELECT json_array('user', u.user_name) FROM users u WHERE u.user_id = i.id),
        (SELECT json_array('task', t.job_num, t.template) FROM tasks t WHERE t.job_id = i.id),
        (SELECT json_array('variant', v.name, v.version) FROM variants v WHERE v.variant_id = i.id),
        (SELECT json_array('upload', up.file_name) FROM uploads up WHERE up.upload_id = i.id),
        (SELECT json_array('task_template', tt.name) FROM task_templates tt WHERE tt.template_id = i.id),
        (SELECT json_array('field_template', ft.field_def_name) FROM field_templates ft WHERE ft.field_def_id = i.id),
        (SELECT json_array('tag', tg.tag_name) FROM tags tg WHERE tg.tag_id = i.id),
        (SELECT json_array('taxon', tx.name) FROM taxa tx WHERE tx.taxon_id = i.id),
        (SELECT json_array('workflow', w.name) FROM udwf_workflows w WHERE w.workflow_id = i.id),
        (SELECT json_array('storage', st.storage_name) FROM storages st WHERE st.storage_id = i.id),
        (SELECT json_array('asset_class', ac.name) FROM asset_classes ac WHERE ac.class_id = i.id),
        (SELECT json_array('list', l.list_name) FROM lists l WHERE l.list_id = i.id),
        (SELECT json_array('token', tk.name) FROM api_tokens tk WHERE tk.token_id = i.id),
        (SELECT json_array('rule', COALESCE(ru.user_name, rg.group_name), r.subj_type) FROM access_rules r
          LEFT JOIN users ru ON ru.user_id = r.subj_id LEFT JOIN groups rg ON rg.group_id = r.subj_id WHERE r.rule_id = i.id),
        (SELECT json_extract(p.names, '$."' || i.id || '"') FROM events p
          WHERE p.entity_id = i.id AND p.rowid < NEW.rowid AND json_extract(p.names, '$."' || i.id || '"') IS NOT NULL
          ORDER BY p.rowid DESC LIMIT 1)
      ) AS j
      FROM (
        SELECT NEW.entity_id AS id WHERE NEW.entity_id IS NOT NULL
        UNION SELECT NEW.user_id WHERE NEW.user_id IS NOT NULL
        UNION SELECT value FROM json_tree(NEW.data)
          WHERE type = 'text' AND length(value) = 36 AND value GLOB '[0-9a-f]*-*-*-*-*'
      ) i
    ) s WHERE s.j IS NOT NULL
  ) WHERE rowid = NEW.rowid;
END;
