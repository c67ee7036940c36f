package dev.sluice.slap.html;

/** The reports' colours: distinct for the colour-blind (Okabe and Ito's palette), one for trouble. */
public final class Palette {

    public static final String BLUE = "#0072b2";
    public static final String ORANGE = "#e69f00";
    public static final String GREEN = "#009e73";
    public static final String PURPLE = "#cc79a7";
    public static final String GREY = "#7a7a7a";
    public static final String BAD = "#d55e00";

    private Palette() {
    }
}
