/**
 * Gates: decisions a build can take from a run folder. {@code compare --fail-on} fails when a
 * figure of B is slower than A's beyond noise ({@link FailOn}); {@code run --assert} and
 * {@code report --assert} fail when a step's figure is on the wrong side of a bound
 * ({@link Assertion}, checked over a run folder by {@link RunAssertions}). Each check is passed,
 * failed or inconclusive ({@link Outcome}): a figure the noise does not let one decide is said to be
 * so, never passed. The checks are written as a JUnit XML report ({@link JUnitXml}) that CI systems
 * show as tests.
 */
package org.testbed.runfolder.gate;
