/* Nothing to declare: the library acts in its constructor. */
