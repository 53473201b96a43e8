import type { FeatureCollection, Geometry, Position } from 'geojson';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';

/**
 * The offline basemap: Natural Earth country outlines (1:110m, from the world-atlas package) drawn as vector
 * shapes, so the map works with no internet. A tile server can be layered on top (customer setting mapTileUrl).
 */
export async function loadCountries(): Promise<FeatureCollection> {
  const topology = (await import('world-atlas/countries-110m.json')).default as unknown as Topology<{ countries: GeometryCollection }>;
  return unwrapAntimeridian(feature(topology, topology.objects.countries) as FeatureCollection);
}

/**
 * A ring that crosses the antimeridian (Fiji, Russia's far east) jumps from +180 to -180; drawn as is, that edge
 * is a band across the whole world. Each point is moved by whole turns to stay next to the one before it.
 */
export function unwrapRing(ring: Position[]): Position[] {
  let previous: number | null = null;
  return ring.map((point) => {
    let lon = point[0] as number;
    if (previous !== null) {
      while (lon - previous > 180) lon -= 360;
      while (lon - previous < -180) lon += 360;
    }
    previous = lon;
    return [lon, ...point.slice(1)];
  });
}

function unwrapGeometry(geometry: Geometry): Geometry {
  if (geometry.type === 'Polygon') return { ...geometry, coordinates: geometry.coordinates.map(unwrapRing) };
  if (geometry.type === 'MultiPolygon') return { ...geometry, coordinates: geometry.coordinates.map((p) => p.map(unwrapRing)) };
  return geometry;
}

export function unwrapAntimeridian(collection: FeatureCollection): FeatureCollection {
  return { ...collection, features: collection.features.map((f) => (f.geometry ? { ...f, geometry: unwrapGeometry(f.geometry) } : f)) };
}
