package org.testbed.runner;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The layering the module map promises, checked on the compiled classes: no two packages of the
 * runner and the modules it is built on form a cycle, root packages included; the load driver knows
 * nothing of a run, so a load machine can run it alone; and the ssh code knows nothing of the project.
 */
class ArchitectureTest {
    /** The packages checked, each with every package under it. */
    private static final List<String> CHECKED = List.of("org.testbed.runner", "org.testbed.runfolder", "org.testbed.jmeter",
            "org.testbed.ssh", "org.testbed.driver");

    private static JavaClasses classes;

    @BeforeAll
    static void importClasses() {
        // Main classes only: tests may reach across packages, and a module's test-jar is tests too.
        classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .withImportOption(location -> !location.contains("-tests.jar"))
                .importPackages(CHECKED);
    }

    @Test
    void noTwoPackagesFormACycle() {
        slices().assignedFrom(EVERY_PACKAGE).should().beFreeOfCycles().check(classes);
    }

    @Test
    void theLoadDriverDependsOnNothingOfARun() {
        noClasses().that().resideInAPackage("org.testbed.driver..")
                .should().dependOnClassesThat().resideInAnyPackage("org.testbed.runner..", "org.testbed.runfolder..",
                        "org.testbed.jmeter..", "org.testbed.ssh..")
                .check(classes);
    }

    @Test
    void theSshCodeDependsOnNoOtherPartOfTheProject() {
        noClasses().that().resideInAPackage("org.testbed.ssh..")
                .should().dependOnClassesThat(resideInAPackage("org.testbed..").and(not(resideInAPackage("org.testbed.ssh.."))))
                .check(classes);
    }

    /**
     * Every package its own slice: a package and its sub-packages are apart, so a root package such
     * as {@code org.testbed.runfolder} is checked against {@code org.testbed.runfolder.csv} too
     * (a pattern such as {@code org.testbed.runfolder.(*)..} leaves the root package out).
     */
    private static final SliceAssignment EVERY_PACKAGE = new SliceAssignment() {
        @Override
        public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
            String name = javaClass.getPackageName();
            boolean checked = CHECKED.stream().anyMatch(root -> name.equals(root) || name.startsWith(root + "."));
            return checked ? SliceIdentifier.of(name) : SliceIdentifier.ignore();
        }

        @Override
        public String getDescription() {
            return "every package of " + String.join(", ", CHECKED);
        }
    };
}
