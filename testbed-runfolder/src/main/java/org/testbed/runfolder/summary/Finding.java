package org.testbed.runfolder.summary;

/**
 * What a run found, in words, with the figures and the rule that say so and where its evidence is.
 *
 * @param rule the rule that wrote it ({@link FindingRules}), e.g. {@code littles-law}
 * @param text the finding, its figures in it
 * @param why the rule, in a sentence: what was compared with what
 * @param evidence the id of the report's section that shows it ({@code scenario-delay}, {@code steps})
 */
public record Finding(String rule, String text, String why, String evidence) {
}
