#!/bin/bash
# Sourced by create-topics.sh and wait-for-topics.sh, which run in different containers against the same cluster:
# sets KT, the kafka-topics.sh to call, and CLIENT, its arguments to reach Kafka as the services do.
: "${KAFKA_BOOTSTRAP_SERVERS:?KAFKA_BOOTSTRAP_SERVERS is not set}"
: "${TOPICS:?TOPICS is not set}"
KT="${KAFKA_TOPICS_SH:-/opt/kafka/bin/kafka-topics.sh}"
CLIENT_PROPERTIES="${KAFKA_CLIENT_PROPERTIES:-/etc/jobweaver/kafka-client/client.properties}"
CLIENT=(--bootstrap-server "$KAFKA_BOOTSTRAP_SERVERS")
if [ -f "$CLIENT_PROPERTIES" ]; then
  CLIENT+=(--command-config "$CLIENT_PROPERTIES")
elif [ -n "${KAFKA_SECURITY_PROTOCOL:-}" ]; then
  # The services' own KAFKA_* settings (components/kafka-sasl) as the CLI's client configuration, readable by this
  # container's user only: it holds the SASL credentials.
  CLIENT_PROPERTIES="${TMPDIR:-/tmp}/jobweaver-kafka-client.properties"
  (
    umask 077
    echo "security.protocol=$KAFKA_SECURITY_PROTOCOL" > "$CLIENT_PROPERTIES"
    [ -z "${KAFKA_SASL_MECHANISM:-}" ] || echo "sasl.mechanism=$KAFKA_SASL_MECHANISM" >> "$CLIENT_PROPERTIES"
    [ -z "${KAFKA_SASL_JAAS_CONFIG:-}" ] || echo "sasl.jaas.config=$KAFKA_SASL_JAAS_CONFIG" >> "$CLIENT_PROPERTIES"
  )
  CLIENT+=(--command-config "$CLIENT_PROPERTIES")
fi
