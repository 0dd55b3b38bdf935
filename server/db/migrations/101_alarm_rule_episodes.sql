-- Issue 22: the alarm rules are evaluated on every device report. A rule's breach by one device is
-- an episode: it starts with the first reading past the threshold, raises one alarm record once it
-- has lasted the rule's duration, and ends with the first reading back within bounds, which marks
-- that alarm 已恢复 when the rule says so (recover_automatically) and it is still open. One row per
-- rule and device while an episode lasts: taking it decides, for reports of one device sent at
-- once, which one raises.
ALTER TABLE alarm_rule ADD COLUMN recover_automatically boolean NOT NULL DEFAULT true;

CREATE TABLE alarm_rule_episode (
  rule_id integer NOT NULL REFERENCES alarm_rule (id) ON DELETE CASCADE,
  device_id integer NOT NULL REFERENCES device (id) ON DELETE CASCADE,
  -- the reading that began the breach
  breached_since timestamptz NOT NULL,
  -- the alarm it raised, once the breach lasted the rule's duration
  alarm_record_id integer REFERENCES alarm_record (id) ON DELETE SET NULL,
  PRIMARY KEY (rule_id, device_id)
);
CREATE INDEX alarm_rule_episode_device_idx ON alarm_rule_episode (device_id);
