package dev.jobweaver.e2e.support;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * A headless Chromium on the dashboard of the e2e platform's API: the Debian {@code chromium} and
 * {@code chromium-driver} packages, both paths set explicitly so that Selenium Manager never looks for (or downloads) a
 * browser or a driver. Screenshots go to {@code target/screenshots/}.
 */
public final class Browser implements AutoCloseable {

    public static final Path CHROMIUM = Path.of(System.getProperty("jobweaver.chromium", "/usr/bin/chromium"));
    public static final Path CHROMEDRIVER = Path.of(System.getProperty("jobweaver.chromedriver",
            "/usr/bin/chromedriver"));
    private static final Path SCREENSHOTS = Path.of("target", "screenshots");
    private static final Duration WAIT = Duration.ofSeconds(30);

    /** Where the dashboard keeps the key the user entered, for the tab's life (dashboard/js/api.js). */
    static final String KEY_ITEM = "jobweaver.apiKey";

    private final ChromeDriver driver;
    private final String baseUrl;

    private Browser(ChromeDriver driver, String baseUrl) {
        this.driver = driver;
        this.baseUrl = baseUrl;
    }

    /**
     * A browser on the dashboard of {@code api}'s API, signed in with its key as a user who entered it in the
     * dashboard's key dialog: the key sits in the tab's session storage, where the dashboard looks first.
     */
    public static Browser open(JobWeaverClient api) {
        Browser browser = open(api.baseUrl());
        if (api.apiKey() != null) {
            browser.signIn(api.apiKey());
        }
        return browser;
    }

    /**
     * Stores {@code key} where the dashboard keeps the key a user enters; session storage is per origin and tab, so a
     * page of the API's origin is loaded first (the health check, which needs no key).
     */
    public void signIn(String key) {
        driver.get(baseUrl + "/q/health/live");
        ((JavascriptExecutor) driver).executeScript("sessionStorage.setItem(arguments[0], arguments[1]);", KEY_ITEM,
                key);
    }

    /**
     * A browser on the API at {@code baseUrl}, with no key: the dashboard asks for one on its first 401. Without Chromium the test is skipped, with a message that says how to
     * install it, unless the environment variable {@code CI} is set: in CI the browser tests must run, so they fail.
     */
    public static Browser open(String baseUrl) {
        boolean present = Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER);
        String missing = "the dashboard's browser tests need " + CHROMIUM + " and " + CHROMEDRIVER
                + " (apt-get install -y chromium chromium-driver)";
        if (!present) {
            if (System.getenv("CI") != null) {
                Assertions.fail(missing + "; CI is set, so they are not skipped");
            }
            Assumptions.abort(missing + "; skipped because CI is not set");
        }
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,900",
                "--disable-gpu", "--lang=en-GB");
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort()
                .build();
        return new Browser(new ChromeDriver(service, options), baseUrl);
    }

    public WebDriver driver() {
        return driver;
    }

    /** Opens {@code /dashboard/} at {@code hash} (such as {@code #/jobs}). */
    public void open(String path, String hash) {
        driver.get(baseUrl + path + hash);
    }

    /** Opens the dashboard page of {@code hash}, from the start (a fresh load). */
    public void page(String hash) {
        driver.get(baseUrl + "/dashboard/" + hash);
    }

    /** Waits until {@code condition} gives something other than null or false. */
    public <T> T await(Function<WebDriver, T> condition) {
        return new WebDriverWait(driver, WAIT).ignoring(org.openqa.selenium.StaleElementReferenceException.class)
                .until(condition);
    }

    /**
     * The text {@code read} takes from the page, read again when an element it found went stale first: the pages draw
     * their lists and details again as they poll.
     */
    public String text(Function<WebDriver, String> read) {
        return await(read);
    }

    /**
     * Clicks the element {@code find} gives, finding it again when it went stale first: the pages re-render their lists
     * as they poll, so an element found a moment ago may have been replaced by the time of the click.
     */
    public void click(java.util.function.Supplier<WebElement> find) {
        await(d -> {
            try {
                find.get().click();
                return true;
            } catch (org.openqa.selenium.StaleElementReferenceException e) {
                return false;
            }
        });
    }

    /** The element of this {@code data-testid}, once there and shown. */
    public WebElement testid(String testid) {
        return await(d -> {
            List<WebElement> found = d.findElements(byTestid(testid));
            return found.stream().filter(WebElement::isDisplayed).findFirst().orElse(null);
        });
    }

    public static By byTestid(String testid) {
        return By.cssSelector("[data-testid='" + testid + "']");
    }

    /** Waits until the element of {@code css} has exactly {@code text}. */
    public void awaitText(By by, String text) {
        await(d -> d.findElements(by).stream().anyMatch(e -> text.equals(e.getText().strip())));
    }

    /** The message the page shows for an error of the API, or null when it shows none. */
    public String error() {
        WebElement box = driver.findElement(By.id("error"));
        return box.isDisplayed() ? box.getText() : null;
    }

    /** Emulates a phone of 390x844 CSS pixels (touch, mobile viewport), or goes back to a laptop's window. */
    public void phone(boolean phone) {
        if (phone) {
            driver.executeCdpCommand("Emulation.setDeviceMetricsOverride", Map.of("width", 390, "height", 844,
                    "deviceScaleFactor", 2, "mobile", true));
        } else {
            driver.executeCdpCommand("Emulation.clearDeviceMetricsOverride", Map.of());
        }
    }

    /** Whether the page is wider than its viewport (it would scroll sideways). */
    public boolean scrollsSideways() {
        Object wider = ((JavascriptExecutor) driver).executeScript(
                "return document.documentElement.scrollWidth > window.innerWidth;");
        return Boolean.TRUE.equals(wider);
    }

    /** The page's width and the viewport's, for an assertion's message. */
    public String widths() {
        return String.valueOf(((JavascriptExecutor) driver).executeScript(
                "return 'scrollWidth ' + document.documentElement.scrollWidth + ', innerWidth ' + window.innerWidth;"));
    }

    /** Writes a screenshot of the page to {@code target/screenshots/<name>.png}; its path. */
    public Path screenshot(String name) {
        try {
            Files.createDirectories(SCREENSHOTS);
            Path target = SCREENSHOTS.resolve(name + ".png");
            Files.copy(driver.getScreenshotAs(OutputType.FILE).toPath(), target, StandardCopyOption.REPLACE_EXISTING);
            return target;
        } catch (IOException e) {
            throw new IllegalStateException("could not write the screenshot " + name, e);
        }
    }

    @Override
    public void close() {
        driver.quit();
    }
}
