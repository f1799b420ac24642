# Sourced by ./jobweaver and .ci/run: selects a JDK 25 (the machine's default java may be older).
# Order: $JAVA_HOME if it is 25+, then a Temurin/OpenJDK 25 under /usr/lib/jvm, then `java` on the PATH.
jobweaver_java_major() {
  "$1/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p'
}
jobweaver_select_jdk() {
  local candidate major
  for candidate in "${JAVA_HOME:-}" /usr/lib/jvm/temurin-25-jdk-amd64 /usr/lib/jvm/temurin-25* /usr/lib/jvm/java-25* /usr/lib/jvm/*25* \
      "$(dirname "$(dirname "$(readlink -f "$(command -v java 2>/dev/null || echo /nonexistent)")")")"; do
    [ -n "$candidate" ] && [ -x "$candidate/bin/java" ] || continue
    major=$(jobweaver_java_major "$candidate")
    if [ -n "$major" ] && [ "${major%%.*}" -ge 25 ] 2>/dev/null; then
      export JAVA_HOME="$candidate"
      export PATH="$JAVA_HOME/bin:$PATH"
      return 0
    fi
  done
  echo "JobWeaver needs a JDK 25 or newer: install one (e.g. Temurin 25) and set JAVA_HOME" >&2
  return 1
}
