"""Worked solutions to the lessons' exercises, one module per lesson (``lesson02`` …).

They ship inside the package so a learner who installed the kit from a wheel can
read them too: ``aria_kit.exercises.show_solution("02.1")`` prints one exercise's answer. The
test suite runs every exercise check against these answers.
"""
