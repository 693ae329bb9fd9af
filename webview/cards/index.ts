// The cards-and-steering room: a card per thought (windowed in a big session, with its badges, deliberation facts and
// recommended tools) and the steering box under them (notes, Reject, Explore, Conclude now, and their marks).
export { FeedbackControls } from './feedbackControls';
export { ThoughtCards } from './thoughtCards';
