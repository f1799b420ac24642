package dev.jobweaver.e2e;

import dev.jobweaver.e2e.support.Browser;
import dev.jobweaver.e2e.support.E2ePlatform;
import dev.jobweaver.e2e.support.JobWeaverClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;

/**
 * What the dashboard's test classes share: one headless Chromium per class on the platform's API, opened before its
 * first test and closed after its last, and a healthy platform before every test. The classes run one after another
 * (the e2e suite runs no classes in parallel), so the static fields belong to one class at a time.
 */
abstract class InBrowser {

    static Browser browser;
    static JobWeaverClient api;

    @BeforeAll
    static void openBrowser() {
        api = E2ePlatform.api();
        browser = Browser.open(api);
    }

    @AfterAll
    static void closeBrowser() {
        if (browser != null) {
            browser.close();
            browser = null;
        }
    }

    @BeforeEach
    void platformIsHealthy() {
        E2ePlatform.awaitHealthy();
    }
}
