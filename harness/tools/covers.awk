# The elements a case's .covers names, read from its source; shared by
# harness/tools/covers-check.sh and tests/integration/area_rule.sh (awk -f
# this file -f the caller's program). The field may run over several
# lines of concatenated strings: from the line that starts it, add each
# line with covers_add(); it returns 1 on the line where the field ends
# (its last string followed by "," or ")"), with the elements, one space
# apart, in COVERS ("" when it names none).
function covers_add(line,    s) {
	covers_text = covers_text line
	if (line !~ /"[ \t]*(,|\))[ \t]*(\/\*.*)?$/)
		return 0
	s = covers_text
	covers_text = ""
	COVERS = ""
	while (match(s, /"[^"]*"/)) {
		COVERS = COVERS " " substr(s, RSTART + 1, RLENGTH - 2)
		s = substr(s, RSTART + RLENGTH)
	}
	gsub(/[ \t]+/, " ", COVERS)
	sub(/^ /, "", COVERS)
	sub(/ $/, "", COVERS)
	return 1
}
