"""Paired rounds (docs/measurement.md, "Paired rounds"): each tool measured once a round, the
figure is the median of the rounds' own ratios, printed with their range."""
import statistics


def paired(a, b, digits=2):
    """The median of the ratios a[k] / b[k], and their range, as text ("0.99x (rounds ...)")."""
    ratios = sorted(x / y for x, y in zip(a, b))
    return (f"{statistics.median(ratios):.{digits}f}x "
            f"(rounds {ratios[0]:.{digits}f}-{ratios[-1]:.{digits}f}x)")
