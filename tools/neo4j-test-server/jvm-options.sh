# Sourced by build.sh and start.sh. A JVM only maps the AppCDS archive when it runs with the same jar and compatible
# flags as the one that wrote it, so both scripts take the java binary and flags from here.
# shellcheck shell=bash

neo4j_java_bin="${JAVA_HOME:+$JAVA_HOME/bin/}java"
# The archive belongs to one JVM build: a different java (another JAVA_HOME) gets a new one.
neo4j_java_identity() { readlink -f "$(command -v "$neo4j_java_bin")"; }

neo4j_jvm_opts=(
  -XX:+UseParallelGC -Xms256m -Xmx1g -XX:-OmitStackTraceInFastThrow
  # JVM warnings (a stale archive, say) go to stderr: stdout carries only the URI line.
  -Xlog:disable -Xlog:all=warning:stderr
  # The set Neo4j 5's own launcher passes (off-heap buffers, native I/O).
  --add-opens=java.base/java.nio=ALL-UNNAMED
  --add-opens=java.base/java.io=ALL-UNNAMED
  --add-opens=java.base/sun.nio.ch=ALL-UNNAMED
  --add-opens=java.base/java.lang=ALL-UNNAMED
  --add-opens=java.base/java.util=ALL-UNNAMED
  --add-exports=java.base/sun.nio.ch=ALL-UNNAMED
  --enable-native-access=ALL-UNNAMED
  -Dfile.encoding=UTF-8
)
