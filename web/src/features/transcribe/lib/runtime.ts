/**
 * What a session needs and the idle card does not: the recognition engine and
 * device-storage recovery. One chunk, loaded on the intent to start (or when a
 * transcript may be waiting to be restored), so the home route stays small.
 */
export { RecognitionEngine } from '../engine/recognition-engine';
export { createRecoveryStore } from './recovery';
