#!/bin/bash
# Creates JobWeaver's topics with their partition counts, once Kafka answers. Idempotent: run it again and it
# changes nothing. A topic that already exists with fewer partitions than required is an error naming the command that
# grows it: the consumers' parallelism depends on the count, and growing a topic sends a key's later records to another
# partition, which is the operator's decision (the services tolerate it: outcomes carry their attempt, statuses their
# version).
set -euo pipefail
# shellcheck source=kafka-client.sh
source "$(dirname "${BASH_SOURCE[0]}")/kafka-client.sh"
RF="${TOPIC_REPLICATION_FACTOR:-1}"
MIN_ISR="${TOPIC_MIN_INSYNC_REPLICAS:-1}"

until "$KT" "${CLIENT[@]}" --list >/dev/null 2>&1; do
  echo "waiting for Kafka at $KAFKA_BOOTSTRAP_SERVERS ..."
  sleep 3
done

for spec in $TOPICS; do
  IFS=: read -r name partitions options <<<"$spec"
  configs=(--config "min.insync.replicas=$MIN_ISR")
  IFS=: read -r -a extras <<<"${options:-}"
  for option in "${extras[@]}"; do
    case "$option" in
      compact)
        # Keys (job ids) never repeat: compaction alone would keep every job's last status forever
        # (Topics.COMPACTED_RETENTION). A topic created before this keeps its policy: kafka-configs.sh --alter.
        configs+=(--config cleanup.policy=compact,delete --config "retention.ms=${COMPACTED_RETENTION_MS:-604800000}") ;;
      max-bytes=*)
        # The quarantine keeps whole records plus headers: room above the broker's default record size.
        configs+=(--config "max.message.bytes=${option#max-bytes=}") ;;
      *)
        echo "topic $name: unknown option '$option' (compact, max-bytes=N)" >&2
        exit 2 ;;
    esac
  done
  "$KT" "${CLIENT[@]}" --create --if-not-exists --topic "$name" \
    --partitions "$partitions" --replication-factor "$RF" "${configs[@]}"
  actual=$("$KT" "${CLIENT[@]}" --describe --topic "$name" | grep -o 'PartitionCount: *[0-9]*' | grep -o '[0-9]*$' | head -n 1)
  if [ -z "$actual" ] || [ "$actual" -lt "$partitions" ]; then
    echo "topic $name has ${actual:-no} partitions, $partitions required;" \
      "grow it with: kafka-topics.sh --alter --topic $name --partitions $partitions" >&2
    exit 1
  fi
  echo "topic $name: $actual partitions"
done
echo "all topics present"
