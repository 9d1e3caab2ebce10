/**
 * The figures a run folder holds, each declared once ({@link org.testbed.runfolder.figure.Figure}):
 * the bottom of the run folder's packages, depending on none of them, so that every table, comparison,
 * gate and page reads a figure's name, unit, digits and direction from the same place.
 */
package org.testbed.runfolder.figure;
