import type { FeatureCollection } from 'geojson';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';

/**
 * The offline basemap: Natural Earth country outlines (1:110m, from the world-atlas package) drawn as vector
 * shapes, so the map works with no internet. A tile server can be layered on top (customer setting mapTileUrl).
 */
export async function loadCountries(): Promise<FeatureCollection> {
  const topology = (await import('world-atlas/countries-110m.json')).default as unknown as Topology<{ countries: GeometryCollection }>;
  return feature(topology, topology.objects.countries) as FeatureCollection;
}
