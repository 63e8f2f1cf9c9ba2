// The throttling plugin loads Bottleneck's light build (no Redis clustering); crew's groups come
// from the same build so a job loads one copy. The package ships types only for its main entry.
declare module 'bottleneck/light.js' {
  import Bottleneck from 'bottleneck';
  export default Bottleneck;
}
