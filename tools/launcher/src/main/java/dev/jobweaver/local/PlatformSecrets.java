package dev.jobweaver.local;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The API's two secrets on one machine, made on the first start in a home folder and kept in
 * {@code <home>/secrets.properties} (readable by its owner only): the bootstrap admin key, which `./jobweaver up` prints
 * and `./jobweaver bench` sends, and the key that encrypts webhook secrets at rest.
 *
 * <p>Kept rather than made anew on every start: the API stores the admin key's hash once, and webhook secrets encrypted
 * under one secret key cannot be read under another. A file that is there but unreadable is therefore refused, never
 * replaced.
 *
 * <p>Handed to the API process as environment variables ({@link #apiEnvironment()}), which other users cannot read in
 * {@code ps}, unlike its command line.
 *
 * @param adminKey  {@code jw_} and 43 base64url characters (32 random bytes)
 * @param secretKey base64 of 32 random bytes: the AES-256 key of webhook secrets
 */
public record PlatformSecrets(String adminKey, String secretKey) {

    /** The file's name in the home folder. */
    public static final String FILE = "secrets.properties";

    static final String ADMIN_KEY = "jobweaver.security.bootstrap-admin-key";
    static final String SECRET_KEY = "jobweaver.security.secret-key";

    /** The environment variables MicroProfile Config maps to {@link #ADMIN_KEY} and {@link #SECRET_KEY}. */
    static final String ADMIN_KEY_ENV = "JOBWEAVER_SECURITY_BOOTSTRAP_ADMIN_KEY";
    static final String SECRET_KEY_ENV = "JOBWEAVER_SECURITY_SECRET_KEY";

    /** What an API key looks like: {@code jw_} and the unpadded base64url of 32 bytes. */
    static final Pattern KEY_FORMAT = Pattern.compile("jw_[A-Za-z0-9_-]{43}");

    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");

    public PlatformSecrets {
        if (adminKey == null || !KEY_FORMAT.matcher(adminKey).matches()) {
            throw new IllegalArgumentException("the admin key is not jw_ followed by 43 base64url characters");
        }
        if (secretKey == null || decodedLength(secretKey) != 32) {
            throw new IllegalArgumentException("the secret key is not the base64 of 32 bytes");
        }
    }

    /** Fresh secrets from {@code random}. */
    public static PlatformSecrets generate(SecureRandom random) {
        byte[] key = new byte[32];
        random.nextBytes(key);
        byte[] secret = new byte[32];
        random.nextBytes(secret);
        return new PlatformSecrets("jw_" + Base64.getUrlEncoder().withoutPadding().encodeToString(key),
                Base64.getEncoder().encodeToString(secret));
    }

    /** {@code <home>/secrets.properties}. */
    public static Path file(Path home) {
        return home.resolve(FILE);
    }

    /**
     * The secrets of {@code home}: the ones stored there, or new ones, stored first (owner-only permissions). A stored
     * file whose group or others may read it is made owner-only.
     *
     * @throws IllegalStateException when the file is there but does not hold two well-formed secrets
     */
    public static PlatformSecrets loadOrCreate(Path home) {
        Optional<PlatformSecrets> stored = load(home);
        if (stored.isPresent()) {
            return stored.get();
        }
        PlatformSecrets made = generate(new SecureRandom());
        try {
            Files.createDirectories(home);
            made.writeNew(file(home));
            return made;
        } catch (FileAlreadyExistsException raced) {
            // another launcher on the same home wrote it first: its secrets are the ones the API will keep
            return load(home).orElseThrow();
        } catch (IOException e) {
            throw new UncheckedIOException("could not write " + file(home), e);
        }
    }

    /**
     * The secrets stored in {@code home}, or empty when there is no file yet.
     *
     * @throws IllegalStateException when the file is there but does not hold two well-formed secrets
     */
    public static Optional<PlatformSecrets> load(Path home) {
        Path file = file(home);
        if (!Files.exists(file)) {
            return Optional.empty();
        }
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(file)) {
            properties.load(reader);
            restrictToOwner(file);
        } catch (IOException e) {
            throw new UncheckedIOException("could not read " + file, e);
        }
        try {
            return Optional.of(new PlatformSecrets(properties.getProperty(ADMIN_KEY),
                    properties.getProperty(SECRET_KEY)));
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException(file + " is damaged (" + e.getMessage() + "). It is not replaced, since "
                    + "webhook secrets stored under its secret key would be lost: repair it, or remove it together "
                    + "with the data of this home", e);
        }
    }

    /** What the API process gets in its environment. */
    public Map<String, String> apiEnvironment() {
        return Map.of(ADMIN_KEY_ENV, adminKey, SECRET_KEY_ENV, secretKey);
    }

    /** Creates {@code file} with owner-only permissions from the start (no moment in which others could read it). */
    private void writeNew(Path file) throws IOException {
        Path partial = Files.getFileAttributeView(file.getParent(), PosixFileAttributeView.class) != null
                ? Files.createTempFile(file.getParent(), FILE, ".new", PosixFilePermissions.asFileAttribute(OWNER_ONLY))
                : Files.createTempFile(file.getParent(), FILE, ".new");
        // Written by hand, not by Properties.store, which would escape the base64 padding as "\\=": the file stays
        // readable by people and by `grep | cut -d= -f2-`, and Properties.load reads it all the same.
        try (Writer writer = Files.newBufferedWriter(partial)) {
            writer.write("# JobWeaver on this machine: the API's admin key and the key of webhook secrets at rest.\n"
                    + "# Keep it private; keep it as long as the data of this home is kept.\n"
                    + ADMIN_KEY + "=" + adminKey + "\n"
                    + SECRET_KEY + "=" + secretKey + "\n");
        }
        // a link, not a move: it fails when a concurrent start got there first, instead of replacing its secrets
        try {
            Files.createLink(file, partial);
        } finally {
            Files.deleteIfExists(partial);
        }
    }

    private static void restrictToOwner(Path file) throws IOException {
        PosixFileAttributeView view = Files.getFileAttributeView(file, PosixFileAttributeView.class);
        if (view != null && !view.readAttributes().permissions().equals(OWNER_ONLY)) {
            view.setPermissions(OWNER_ONLY);
        }
    }

    private static int decodedLength(String base64) {
        try {
            return Base64.getDecoder().decode(base64).length;
        } catch (IllegalArgumentException e) {
            return -1;
        }
    }

    /** Never the secrets themselves: a record's default would print them into any log that shows this object. */
    @Override
    public String toString() {
        return "PlatformSecrets[adminKey=jw_…, secretKey=…]";
    }
}
