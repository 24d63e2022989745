-- The default preview template takes sounds (their waveform) and PDFs (their first page) too
-- (docs/decisions/073-pdf-pages-as-pictures.md), where it is still as seeded: an admin's own list of types is left as it is.
UPDATE `task_templates` SET `setup` = json_set(`setup`, '$.on_upload', json('["video/","image/","audio/","application/pdf"]'))
WHERE `template_id` = '00000000-0000-4000-8000-000000000002' AND json_extract(`setup`, '$.on_upload') = '["video/","image/"]';
