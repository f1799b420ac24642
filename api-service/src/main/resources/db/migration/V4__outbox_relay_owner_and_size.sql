-- The API instance whose relay is publishing a row, so that the same instance, restarted, takes over what it left
-- behind at once instead of waiting for the row to age; null where the instance has no stable name.
ALTER TABLE job_outbox ADD COLUMN relay_instance varchar(128);
-- The size of the row's event, so that the unpublished backlog is bounded in bytes as well as in jobs.
ALTER TABLE job_outbox ADD COLUMN event_bytes integer NOT NULL DEFAULT 0;
