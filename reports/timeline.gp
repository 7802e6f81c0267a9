# Records per time bucket. Variables: datafile (bucket start in seconds
# since the first record, count), outfile, title_text, ylabel_text.
set terminal svg size 900,320 font "DejaVu Sans,11" background "#ffffff"
set output outfile
set title title_text
set xlabel "time since the first record (s)"
set ylabel ylabel_text
set grid
set xrange [0:*]
# from zero, and a range of 1 when every bucket is empty (no warning)
stats datafile using 2 nooutput
set yrange [0:(STATS_max > 0 ? STATS_max * 1.05 : 1)]
set offsets 0.5, 0.5, 0, 0
set style fill solid 0.6
set boxwidth 0.9 relative
plot datafile using 1:2 with boxes lc rgb "#3465a4" notitle
