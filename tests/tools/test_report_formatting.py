"""Tests for looplab_report.formatting: figures as the report prints them.

Run from the repo root:  make test-tools
"""
import unittest

from looplab_report.formatting import cpu_ratio_text, format_ns, ratio_text


class FormatNs(unittest.TestCase):
    def test_digits_by_size(self):
        for ns, text in [(0.0, "0.00"), (1.234, "1.23"), (9.994, "9.99"), (10.0, "10.0"),
                         (99.94, "99.9"), (100.0, "100"), (1234.5, "1,234"),
                         (1234567.0, "1,234,567")]:
            with self.subTest(ns=ns):
                self.assertEqual(format_ns(ns), text)


class RatioText(unittest.TestCase):
    def test_faster_and_slower(self):
        for ratio, text in [(1.0, "1.0× faster"), (62.34, "62.3× faster"), (99.9, "99.9× faster"),
                            (100.0, "100× faster"), (1234.0, "1,234× faster"),
                            (0.5, "2.0× slower"), (1 / 1.4, "1.4× slower")]:
            with self.subTest(ratio=ratio):
                self.assertEqual(ratio_text(ratio), text)

    def test_cpu(self):
        self.assertEqual(cpu_ratio_text(3.14), "3.1× less CPU")
        self.assertEqual(cpu_ratio_text(250.0), "250× less CPU")
        self.assertEqual(cpu_ratio_text(1 / 1.2), "1.2× more CPU")


if __name__ == "__main__":
    unittest.main()
