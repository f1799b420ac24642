-- What each schedule has made: runs made (a tick's or a trigger's job, or workflow run started) and when the last
-- one was. A table of its own rather than columns of schedules: the API's writes of a schedule (Hibernate, the whole
-- row) and the ticks' counts never write the same row, and a tick reads its schedule FOR SHARE without upgrading the
-- lock. The row goes with its schedule's.
CREATE TABLE schedule_history (
    schedule_id   uuid        PRIMARY KEY REFERENCES schedules (id) ON DELETE CASCADE,
    fired_count   bigint      NOT NULL,
    last_fired_at timestamptz NOT NULL
);
