-- Logout ends its session's access tokens too, not only its refresh family: the ended family ids
-- are kept on the user row, which every authenticated request reads anyway, until the last access
-- token of theirs has expired (decision 013).
ALTER TABLE "users" ADD COLUMN "ended_sessions" jsonb DEFAULT '[]'::jsonb NOT NULL;