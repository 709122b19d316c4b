/* geocode-glib (GNOME's Nominatim client, C) against a local travel411 serve: reverse lookups as GNOME
 * Maps and Weather make them. Usage: geocode-glib-reverse BASE_URL LAT LON
 * Prints the place's fields one per line (name=value), or "error=MESSAGE" and exits 2 when the
 * client reports an error (as it does for "Unable to geocode"). */
#include <geocode-glib/geocode-glib.h>
#include <stdio.h>
#include <stdlib.h>

static void field(const char *name, const char *value) {
    if (value != NULL) printf("%s=%s\n", name, value);
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: %s BASE_URL LAT LON\n", argv[0]);
        return 64;
    }
    GeocodeNominatim *backend = geocode_nominatim_new(argv[1], "travel411-ci@localhost");
    GeocodeLocation *location =
        geocode_location_new(g_ascii_strtod(argv[2], NULL), g_ascii_strtod(argv[3], NULL), GEOCODE_LOCATION_ACCURACY_UNKNOWN);
    GeocodeReverse *reverse = geocode_reverse_new_for_location(location);
    geocode_reverse_set_backend(reverse, GEOCODE_BACKEND(backend));
    GError *error = NULL;
    GeocodePlace *place = geocode_reverse_resolve(reverse, &error);
    if (place == NULL) {
        printf("error=%s\n", error != NULL ? error->message : "unknown");
        return 2;
    }
    field("name", geocode_place_get_name(place));
    field("street", geocode_place_get_street(place));
    field("building", geocode_place_get_building(place));
    field("postal_code", geocode_place_get_postal_code(place));
    field("area", geocode_place_get_area(place));
    field("town", geocode_place_get_town(place));
    field("county", geocode_place_get_county(place));
    field("state", geocode_place_get_state(place));
    field("country", geocode_place_get_country(place));
    field("country_code", geocode_place_get_country_code(place));
    GeocodeLocation *found = geocode_place_get_location(place);
    if (found != NULL) printf("location=%.5f,%.5f\n", geocode_location_get_latitude(found), geocode_location_get_longitude(found));
    return 0;
}
