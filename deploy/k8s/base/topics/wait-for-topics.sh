#!/bin/bash
# Init container of every service: holds the service back until the topic Job has created every topic, so no
# consumer or producer ever starts against a missing topic (the broker's auto-creation is off).
set -euo pipefail
# shellcheck source=kafka-client.sh
source "$(dirname "${BASH_SOURCE[0]}")/kafka-client.sh"

while true; do
  existing=$("$KT" "${CLIENT[@]}" --list 2>/dev/null || true)
  missing=()
  for spec in $TOPICS; do
    name="${spec%%:*}"
    grep -qx -- "$name" <<<"$existing" || missing+=("$name")
  done
  if [ "${#missing[@]}" -eq 0 ]; then
    echo "all topics present"
    exit 0
  fi
  echo "waiting for topics: ${missing[*]}"
  sleep 3
done
