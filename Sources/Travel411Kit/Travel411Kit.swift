// The library product: one `import Travel411Kit` gives a program the read side of travel411 (open a places
// database, reverse geocode, format the answers). The targets behind it are re-exported rather than copied,
// so the command-line tool, the server and a program that depends on the package run the same code.
@_exported import Travel411Answers
@_exported import Travel411Core
@_exported import Travel411Geocoder
@_exported import Travel411Store
