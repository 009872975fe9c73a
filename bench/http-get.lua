-- wrk script for bench/http: a plain GET of the URL with the run's -H headers, for
-- bench/http-paced.lua to send at a set rate (PACED_SCRIPT=bench/http-get.lua). It takes the
-- paced script's FILE argument and ignores it.
function init(args) end
