package dev.credence.neo4jtest;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.neo4j.configuration.GraphDatabaseInternalSettings;
import org.neo4j.configuration.GraphDatabaseSettings;
import org.neo4j.configuration.connectors.BoltConnector;
import org.neo4j.configuration.connectors.BoltConnectorInternalSettings;
import org.neo4j.configuration.connectors.ConnectorPortRegister;
import org.neo4j.configuration.connectors.ConnectorType;
import org.neo4j.configuration.helpers.SocketAddress;
import org.neo4j.dbms.api.DatabaseManagementService;
import org.neo4j.dbms.api.DatabaseManagementServiceBuilder;
import org.neo4j.graphdb.GraphDatabaseService;
import org.neo4j.internal.helpers.HostnamePort;
import org.neo4j.io.ByteUnit;
import org.neo4j.kernel.internal.GraphDatabaseAPI;

/**
 * Neo4j Community embedded in this JVM, its Bolt connector on 127.0.0.1, auth disabled, data in a fresh temp folder.
 *
 * <p>Contract with start.sh and lib/testing/neo4j-server.ts: stdout carries exactly one line,
 * {@code NEO4J_URI=bolt://127.0.0.1:<port>}, once Bolt accepts connections; everything else goes to stderr. The
 * process exits, deleting its data, on SIGTERM/SIGINT, when stdin reaches EOF, and when the process that launched it
 * exits — the last two so that a parent that dies without cleaning up never leaves an orphan JVM: its stdin pipe
 * closes, or (when stdin is not a pipe, or a shell such as {@code npm run}'s {@code sh -c} sits in between and does
 * not forward SIGTERM) its pid disappears.
 *
 * <p>Arguments: {@code --port N} (0, the default, lets the OS pick a free port); {@code --no-stdin-watch};
 * {@code --no-parent-watch} (both, for a server that must outlive its launcher); {@code --train}: run a
 * representative Bolt workload once and exit, so that a JVM started with {@code -XX:ArchiveClassesAtExit} archives the
 * classes a test run loads (build.sh does this); {@code --data DIR}: keep the data in DIR (created if missing) and
 * leave it there on exit, so a test can stop the server and start another on the same data and port.
 */
public final class Neo4jTestServer {
  private static final String DATABASE = GraphDatabaseSettings.DEFAULT_DATABASE_NAME;

  private final Path home;
  /** False for a folder given with {@code --data}: it outlives the server. */
  private final boolean temporary;
  private volatile DatabaseManagementService dbms;
  private boolean stopped;

  private Neo4jTestServer(Path home, boolean temporary) {
    this.home = home;
    this.temporary = temporary;
  }

  public static void main(String[] args) throws InterruptedException {
    Options options = Options.parse(args);
    // Neo4j and its libraries may print; only the URI line may reach the real stdout.
    PrintStream uriOut = System.out;
    System.setOut(System.err);

    long startedAt = System.nanoTime();
    Neo4jTestServer server;
    try {
      server = options.data == null
          ? new Neo4jTestServer(Files.createTempDirectory("credence-neo4j-"), true)
          : new Neo4jTestServer(Files.createDirectories(options.data), false);
    } catch (IOException e) {
      log("failed to create the data folder: " + e);
      System.exit(1);
      return;
    }
    // Registered before Neo4j starts, so a signal or EOF during start-up still removes the data folder.
    Runtime.getRuntime().addShutdownHook(new Thread(server::stop, "neo4j-test-server-shutdown"));
    if (options.watchStdin) {
      daemon("neo4j-test-server-stdin", Neo4jTestServer::exitOnStdinEof);
    }
    if (options.watchParent) {
      // Launched by init (pid 1) means already detached: there is no parent to follow.
      ProcessHandle.current().parent().filter(parent -> parent.pid() != 1).ifPresent(
          parent -> daemon("neo4j-test-server-parent", () -> exitWhenGone(parent)));
    }

    String uri;
    try {
      server.dbms = build(server.home, options.port);
      GraphDatabaseService db = server.dbms.database(DATABASE);
      if (!db.isAvailable(TimeUnit.MINUTES.toMillis(2))) {
        throw new IllegalStateException("database '" + DATABASE + "' did not become available");
      }
      uri = "bolt://127.0.0.1:" + boltPort(db);
    } catch (RuntimeException e) {
      e.printStackTrace();
      log("failed to start: " + rootCause(e));
      System.exit(1);
      return;
    }
    long readyMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startedAt);
    log("Neo4j " + neo4jVersion() + " ready in " + readyMs + " ms, data in " + server.home);

    if (options.train) {
      long t0 = System.nanoTime();
      TrainingWorkload.run(uri, DATABASE);
      log("training workload ran in " + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0) + " ms");
      System.exit(0);
    }
    uriOut.println("NEO4J_URI=" + uri);
    uriOut.flush();
    new CountDownLatch(1).await();
  }

  private static String rootCause(Throwable e) {
    Throwable cause = e;
    while (cause.getCause() != null && cause.getCause() != cause) {
      cause = cause.getCause();
    }
    return cause.getClass().getSimpleName() + ": " + cause.getMessage();
  }

  private static DatabaseManagementService build(Path home, int port) {
    return new DatabaseManagementServiceBuilder(home)
        .setConfig(BoltConnector.enabled, true)
        .setConfig(BoltConnector.listen_address, new SocketAddress("127.0.0.1", port))
        .setConfig(BoltConnector.advertised_address, new SocketAddress("127.0.0.1", port))
        .setConfig(BoltConnector.encryption_level, BoltConnector.EncryptionLevel.DISABLED)
        .setConfig(GraphDatabaseSettings.auth_enabled, false)
        // A test server holds little data; the default page cache would claim half the machine's free memory.
        .setConfig(GraphDatabaseSettings.pagecache_memory, ByteUnit.mebiBytes(128))
        .setConfig(GraphDatabaseSettings.preallocate_logical_logs, false)
        .setConfig(GraphDatabaseSettings.keep_logical_logs, "keep_none")
        // No phoning home: the network is closed in CI.
        .setConfig(GraphDatabaseSettings.udc_enabled, false)
        // The data is thrown away on exit, so draining Bolt gracefully (Netty's 2 s quiet period, 15 s timeout,
        // connection and thread-pool waits) only makes every stop ~10 s slower.
        .setConfig(GraphDatabaseInternalSettings.netty_server_shutdown_quiet_period, 0)
        .setConfig(GraphDatabaseInternalSettings.netty_server_shutdown_timeout, Duration.ofSeconds(1))
        .setConfig(BoltConnectorInternalSettings.connection_shutdown_wait_time, Duration.ofMillis(100))
        .setConfig(BoltConnectorInternalSettings.thread_pool_shutdown_wait_time, Duration.ofMillis(100))
        .setConfig(GraphDatabaseSettings.shutdown_transaction_end_timeout, Duration.ofSeconds(1))
        .build();
  }

  /** The port the OS actually bound, which differs from the configured one when that was 0. */
  private static int boltPort(GraphDatabaseService db) {
    HostnamePort bound = ((GraphDatabaseAPI) db)
        .getDependencyResolver()
        .resolveDependency(ConnectorPortRegister.class)
        .getLocalAddress(ConnectorType.BOLT);
    if (bound == null) {
      throw new IllegalStateException("Bolt connector did not register a local address");
    }
    return bound.getPort();
  }

  private static void daemon(String name, Runnable task) {
    Thread thread = new Thread(task, name);
    thread.setDaemon(true);
    thread.start();
  }

  /** Polls: ProcessHandle.onExit cannot wait on a process that is not our child. isAlive also checks start time. */
  private static void exitWhenGone(ProcessHandle parent) {
    try {
      while (parent.isAlive()) {
        Thread.sleep(250);
      }
    } catch (InterruptedException e) {
      return;
    }
    log("parent process " + parent.pid() + " exited, stopping");
    System.exit(0);
  }

  private static void exitOnStdinEof() {
    try {
      InputStream in = System.in;
      byte[] buffer = new byte[256];
      while (in.read(buffer) != -1) {
        // Input is ignored: only its end matters.
      }
    } catch (IOException e) {
      log("stdin failed (" + e.getMessage() + "), stopping");
    }
    log("stdin closed, stopping");
    System.exit(0);
  }

  private synchronized void stop() {
    if (stopped) {
      return;
    }
    stopped = true;
    long t0 = System.nanoTime();
    DatabaseManagementService started = dbms;
    if (started != null) {
      try {
        started.shutdown();
      } catch (RuntimeException e) {
        log("shutdown failed: " + e);
      }
    }
    if (temporary) {
      deleteRecursively(home);
    }
    log("stopped in " + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0) + " ms, " + (temporary ? "removed " : "kept ") + home);
  }

  private static void deleteRecursively(Path root) {
    if (!Files.exists(root)) {
      return;
    }
    try {
      Files.walkFileTree(root, new SimpleFileVisitor<>() {
        @Override
        public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
          Files.delete(file);
          return FileVisitResult.CONTINUE;
        }

        @Override
        public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
          Files.delete(dir);
          return FileVisitResult.CONTINUE;
        }
      });
    } catch (IOException e) {
      log("could not remove " + root + ": " + e);
    }
  }

  /** The shaded jar's manifest is ours, so the version comes from Maven's metadata of the bundled neo4j-kernel. */
  private static String neo4jVersion() {
    try (InputStream in = Neo4jTestServer.class.getResourceAsStream(
        "/META-INF/maven/org.neo4j/neo4j-kernel/pom.properties")) {
      if (in == null) {
        return "(unknown version)";
      }
      Properties properties = new Properties();
      properties.load(in);
      return properties.getProperty("version", "(unknown version)");
    } catch (IOException e) {
      return "(unknown version)";
    }
  }

  private static void log(String message) {
    System.err.println("[neo4j-test-server] " + message);
    System.err.flush();
  }

  private record Options(int port, boolean watchStdin, boolean watchParent, boolean train, Path data) {
    static Options parse(String[] args) {
      int port = 0;
      Path data = null;
      boolean watchStdin = true;
      boolean watchParent = true;
      boolean train = false;
      for (int i = 0; i < args.length; i++) {
        switch (args[i]) {
          case "--port" -> {
            if (i + 1 >= args.length) {
              usage("--port needs a value");
            }
            port = parsePort(args[++i]);
          }
          case "--no-stdin-watch" -> watchStdin = false;
          case "--no-parent-watch" -> watchParent = false;
          case "--train" -> train = true;
          case "--data" -> {
            if (i + 1 >= args.length) {
              usage("--data needs a folder");
            }
            data = Path.of(args[++i]).toAbsolutePath();
          }
          default -> usage("unknown argument: " + args[i]);
        }
      }
      return new Options(port, watchStdin, watchParent, train, data);
    }

    private static int parsePort(String value) {
      try {
        int port = Integer.parseInt(value);
        if (port < 0 || port > 65535) {
          usage("--port must be 0..65535, got " + value);
        }
        return port;
      } catch (NumberFormatException e) {
        usage("--port must be a number, got " + value);
        return -1;
      }
    }

    private static void usage(String problem) {
      System.err.println("neo4j-test-server: " + problem);
      System.err.println("usage: start.sh [--port N] [--data DIR] [--no-stdin-watch] [--no-parent-watch] [--train]");
      System.exit(2);
    }
  }
}
