package org.testbed.runner;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The layering the module map promises, checked on the compiled classes: the runner's packages and
 * the run folder's (testbed-runfolder) form no cycle, and the load driver knows nothing of a run, so a
 * load machine can run it alone.
 */
class ArchitectureTest {
    private static JavaClasses classes;

    @BeforeAll
    static void importClasses() {
        // Main classes only: tests may reach across packages, and a module's test-jar is tests too.
        classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .withImportOption(location -> !location.contains("-tests.jar"))
                .importPackages("org.testbed.runner", "org.testbed.driver", "org.testbed.ssh", "org.testbed.runfolder");
    }

    @Test
    void theRunnersPackagesFormNoCycle() {
        slices().matching("org.testbed.runner.(*)..").should().beFreeOfCycles().check(classes);
    }

    @Test
    void theRunFoldersPackagesFormNoCycle() {
        slices().matching("org.testbed.runfolder.(*)..").should().beFreeOfCycles().check(classes);
    }

    @Test
    void theLoadDriverDependsOnNothingOfARun() {
        noClasses().that().resideInAPackage("org.testbed.driver..")
                .should().dependOnClassesThat().resideInAnyPackage("org.testbed.runner..", "org.testbed.ssh..")
                .check(classes);
    }
}
