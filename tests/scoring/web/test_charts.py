"""The project's own SVG charts (scoring.web.charts): well-formed, accessible, escaped, and drawn
where the numbers say."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from scoring.web.charts import HEIGHT, LEFT, TOP, nice_step, rating_chart, step_chart, ticks

SVG = "{http://www.w3.org/2000/svg}"


def chart(totals, **words):
    words = {"title": "Net of Anna", "desc": "Anna's running net.", "x_label": "Deals", "y_label": "Net", **words}
    return step_chart(totals, **words)


@pytest.mark.parametrize(("span", "step"), [(0, 1), (4, 1), (10, 2), (23, 5), (70, 20), (128, 50), (1000, 200)])
def test_nice_steps(span, step):
    assert nice_step(span) == step


def test_ticks_cover_the_range_on_round_numbers():
    assert ticks(-70, 58) == [-100, -50, 0, 50, 100]
    assert ticks(0, 3) == [0, 1, 2, 3]


def test_a_chart_is_well_formed_svg_with_a_title_and_description_that_label_it():
    root = ET.fromstring(chart([58, 40, -30]))
    assert root.tag == f"{SVG}svg" and root.get("role") == "img"
    assert root.get("aria-labelledby") == "chart-title chart-desc"
    assert root.find(f"{SVG}title").text == "Net of Anna"
    assert root.find(f"{SVG}desc").text == "Anna's running net."
    labels = [t.text for t in root.iter(f"{SVG}text")]
    assert "Deals" in labels and "Net" in labels and "0" in labels


def test_the_line_steps_through_every_total_and_the_zero_line_is_drawn():
    root = ET.fromstring(chart([10, -10, 5]))
    path = root.find(f"{SVG}path").get("d")
    # One vertical move per deal after the start at zero.
    assert path.startswith("M") and path.count("V") == 3 and path.count("H") == 3
    ys = [float(v) for v in re.findall(r"V([\d.]+)", path)]
    assert ys[0] < ys[2] < ys[1]  # +10 highest (SVG y grows downwards), then +5, then −10
    zero = [line for line in root.iter(f"{SVG}line") if line.get("class") == "chart-zero"]
    assert len(zero) == 1
    start_y = float(re.match(r"M[\d.]+,([\d.]+)", path).group(1))
    assert float(zero[0].get("y1")) == start_y  # the line starts on the zero line


def test_no_deals_still_draws_axes_inside_the_box():
    root = ET.fromstring(chart([]))
    assert root.find(f"{SVG}path") is not None
    for line in root.iter(f"{SVG}line"):
        assert 0 <= float(line.get("y1")) <= HEIGHT


def test_every_text_is_escaped():
    svg = chart([1], title='<script>alert(1)</script> & "x"', desc="a<b", x_label="<i>", y_label="&")
    assert "<script>" not in svg and "<i>" not in svg
    ET.fromstring(svg)  # still well formed


def rating(points, **words):
    words = {"title": "Rating of <Anna>", "desc": "Anna's rating & band.", "x_label": "Rated results",
             "y_label": "Rating", **words}
    return rating_chart(points, **words)


def _xy(text):
    return [tuple(float(v) for v in p.split(",")) for p in text.split()]


def test_a_rating_chart_parses_with_one_point_per_rated_result_and_its_band():
    points = [(1000, 320), (1040, 300), (1010, 290), (1100, 250)]
    root = ET.fromstring(rating(points))
    assert root.get("role") == "img" and root.get("aria-labelledby") == "rating-chart-title rating-chart-desc"
    assert root.find(f"{SVG}title").text == "Rating of <Anna>" and root.find(f"{SVG}desc").text == "Anna's rating & band."
    line = _xy(root.find(f"{SVG}polyline").get("points"))
    assert len(line) == len(points)
    xs = [x for x, _ in line]
    assert xs == sorted(xs) and len(set(xs)) == len(xs)          # left to right, one x each
    ys = [y for _, y in line]
    assert ys[3] < ys[1] < ys[2] < ys[0]                           # higher rating, higher on the page
    band = _xy(root.find(f"{SVG}polygon").get("points"))
    assert len(band) == 2 * len(points)
    for i, (x, y) in enumerate(line):
        top, bottom = band[i], band[-1 - i]
        assert top[0] == bottom[0] == x and top[1] < y < bottom[1]   # the rating inside its ± band
    dot = root.find(f"{SVG}circle")
    assert (float(dot.get("cx")), float(dot.get("cy"))) == line[-1]


def test_a_rating_chart_of_one_result_or_none_still_parses():
    one = ET.fromstring(rating([(1000, 333)]))
    assert len(_xy(one.find(f"{SVG}polyline").get("points"))) == 1
    none = ET.fromstring(rating([]))
    assert none.find(f"{SVG}polyline") is None
    x, y = _xy(one.find(f"{SVG}polyline").get("points"))[0]
    assert x > LEFT and y > TOP
